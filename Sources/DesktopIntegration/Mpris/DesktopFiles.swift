/// The desktop entry and AppStream metainfo `make install` puts in
/// `share/applications` and `share/metainfo`: a terminal program
/// (`Terminal=true`) whose file name is what MPRIS's `DesktopEntry` says.
public enum DesktopFiles {
    /// The desktop entry's file name without `.desktop`, and the AppStream id.
    public static let desktopEntry = "interlude"
    /// MPRIS's `Identity`, the entry's `Name`.
    public static let identity = "Interlude"
    package static let summary = "Terminal player for music and audiobooks, with alarms"

    public static var desktopEntryFile: String {
        """
        [Desktop Entry]
        Type=Application
        Name=\(identity)
        GenericName=Audio Player
        Comment=\(summary)
        Exec=interlude %F
        TryExec=interlude
        Icon=multimedia-player
        Terminal=true
        Categories=AudioVideo;Audio;Player;ConsoleOnly;
        Keywords=music;audiobook;player;alarm;mp3;flac;
        MimeType=audio/mpeg;audio/flac;audio/ogg;audio/x-vorbis+ogg;audio/mp4;audio/x-m4b;audio/x-wav;audio/x-mpegurl;

        """
    }

    public static func metainfo(version: String, date: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <component type="console-application">
          <id>\(desktopEntry)</id>
          <metadata_license>FSFAP</metadata_license>
          <project_license>GPL-3.0-or-later</project_license>
          <name>\(identity)</name>
          <summary>\(summary)</summary>
          <description>
            <p>
              Interlude plays music and audiobooks in a terminal: a full-screen player with a
              browser, queue, music library and playlists, books that keep their place, chapters
              and bookmarks, alarms that duck or pause what plays, and a control socket and MPRIS
              for other programs.
            </p>
          </description>
          <launchable type="desktop-id">\(desktopEntry).desktop</launchable>
          <provides>
            <binary>interlude</binary>
          </provides>
          <categories>
            <category>AudioVideo</category>
            <category>Audio</category>
            <category>Player</category>
          </categories>
          <content_rating type="oars-1.1"/>
          <releases>
            <release version="\(version)" date="\(date)"/>
          </releases>
        </component>

        """
    }
}
