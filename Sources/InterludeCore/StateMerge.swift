/// The merge two writers of one state file share: what a writer holds
/// (`mine`) is written over what the file holds now (`theirs`) keeping every
/// change another process made since this writer last read or wrote the file
/// (`base`). Records are matched by id:
///
/// - added elsewhere (in theirs, not in base): kept;
/// - removed elsewhere (in base, not in theirs): stays removed, even if this
///   writer changed it meanwhile;
/// - added here, removed here: as this writer has it;
/// - in all three: field by field, the value this writer changed, else the
///   file's (both changed one field: this writer's, the last to write wins);
/// - added here and elsewhere under the same id (each took the next free
///   one): the file's keeps the id, this writer's is handed back in
///   `collided` for its store to number anew.
public enum StateMerge {
    /// One field: this writer's value when it changed it since `base`, else the file's.
    public static func field<Value: Equatable>(_ base: Value, mine: Value, theirs: Value) -> Value {
        mine == base ? theirs : mine
    }

    public struct Records<Record> {
        /// The file's records in its order (changed as above), then this writer's additions.
        public var merged: [Record]
        /// This writer's additions whose id the file gave another record meanwhile.
        public var collided: [Record]
    }

    /// `fields` merges one record present in all three (see `field`).
    public static func records<Record: Equatable, ID: Hashable>(
        base: [Record], mine: [Record], theirs: [Record], id: (Record) -> ID,
        fields: (_ base: Record, _ mine: Record, _ theirs: Record) -> Record
    ) -> Records<Record> {
        let baseByID = Dictionary(base.map { (id($0), $0) }, uniquingKeysWith: { first, _ in first })
        let mineByID = Dictionary(mine.map { (id($0), $0) }, uniquingKeysWith: { first, _ in first })
        let theirIDs = Set(theirs.map(id))
        var merged: [Record] = []
        var collided: [Record] = []
        for record in theirs {
            let key = id(record)
            if let original = baseByID[key] {
                // Removed here: stays removed. Else both may have changed it.
                if let own = mineByID[key] { merged.append(fields(original, own, record)) }
            } else {
                merged.append(record)
                if let own = mineByID[key], own != record { collided.append(own) }
            }
        }
        // Only in this writer's list: added here, or removed elsewhere (it stays removed).
        for record in mine where !theirIDs.contains(id(record)) && baseByID[id(record)] == nil {
            merged.append(record)
        }
        return Records(merged: merged, collided: collided)
    }
}
