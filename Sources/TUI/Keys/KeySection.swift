import PlayerModel

/// The groups the help listing shows actions in: the command table's sections.
public typealias KeySection = CommandSection
