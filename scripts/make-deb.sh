#!/usr/bin/env bash
# `make deb`: build/interlude_VERSION_ARCH.deb from the release build, with the
# standard tools. `make install` into a staging root with PREFIX=/usr (zsh's
# function in Debian's vendor-completions), the binary stripped, the man page
# and changelog compressed, a copyright file; dpkg-shlibdeps names what the
# binary links, and the libraries it loads with dlopen (the sonames its loaders
# in Sources/C*/ ask for) are named explicitly, each by the package that holds
# that soname on this system. The copyright file is debian/copyright. Run from
# the repository's root.
set -euo pipefail
# The maintainer is whoever builds the package, under the project's name: the
# address from Debian's DEBEMAIL (as dch reads it, "NAME <ADDRESS>" or ADDRESS),
# else this account's on this machine (dch's rule, USER@FQDN); never an address
# made up for the project, which has no mailing list. DEB_MAINTAINER replaces
# the whole field. --maintainer prints it and stops.
address=${DEBEMAIL:-$(id -un)@$(hostname --fqdn 2>/dev/null || hostname)}
address=${address##*<}
maintainer=${DEB_MAINTAINER:-Interlude <${address%>}>}
if [ "${1:-}" = --maintainer ]; then echo "$maintainer"; exit 0; fi
version=$(scripts/version.sh)
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
work=build/deb
root=$work/root
deb=build/interlude_${version}_${arch}.deb
rm -rf "$work" build/interlude_*.deb && mkdir -p "$root/DEBIAN" "$work/debian"
make --no-print-directory install PREBUILT=1 DESTDIR="$PWD/$root" PREFIX=/usr ZSH_COMPLETION_DIR=/usr/share/zsh/vendor-completions >/dev/null

# Debian's policy: binaries stripped, manual pages and changelogs compressed with gzip -9n.
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/interlude"
gzip -9n "$root/usr/share/man/man1/interlude.1"
doc=$root/usr/share/doc/interlude
install -d -m 755 "$doc"
date=$(git log -1 --format=%cD)
{
  echo "interlude ($version) unstable; urgency=medium"
  echo
  echo "  * Built from the Interlude repository at $(git rev-parse --short HEAD)."
  echo
  echo " -- $maintainer  $date"
} | gzip -9n > "$doc/changelog.gz"
chmod 644 "$doc/changelog.gz"
install -m 644 debian/copyright "$doc/copyright"

# What the binary links (DT_NEEDED).
cat > "$work/debian/control" <<CONTROL
Source: interlude

Package: interlude
Architecture: any
CONTROL
shlibs=$(cd "$work" && dpkg-shlibdeps -O "root/usr/bin/interlude" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')

# What it loads with dlopen: the package holding each soname, found through the dynamic linker's cache.
package_of() {
  local path
  path=$(ldconfig -p | awk -v so="$1" '$1 == so && /x86-64|'"$multiarch"'/ { print $NF; exit }')
  [ -n "$path" ] || { echo "make-deb: $1 is not installed (scripts/install-deps.sh installs it)" >&2; exit 1; }
  local package
  package=$( (dpkg -S "$(readlink -f "$path")" || dpkg -S "$path") 2>/dev/null | head -1 | cut -d: -f1)
  [ -n "$package" ] || { echo "make-deb: no package holds $path" >&2; exit 1; }
  echo "$package"
}
# The full-screen player (ncursesw), FLAC files (libFLAC), the music library (SQLite): Depends.
flac_so=$(cd /usr/lib/"$multiarch" && ls libFLAC.so.[0-9]* | grep -E '^libFLAC\.so\.[0-9]+$' | head -1)
depends="$shlibs"
for so in libncursesw.so.6 "$flac_so" libsqlite3.so.0; do depends="$depends, $(package_of "$so")"; done
# Formats beyond MP3 and FLAC (FFmpeg), the sound server's own client (the ALSA plugin
# answers without it), MPRIS and suspend (sd-bus): Recommends.
recommends=""
for lib in avformat avcodec swresample avutil; do
  so=$(cd /usr/lib/"$multiarch" && ls lib$lib.so.[0-9]* | grep -E "^lib$lib\.so\.[0-9]+$" | head -1)
  recommends="$recommends${recommends:+, }$(package_of "$so")"
done
for so in libpulse.so.0 libsystemd.so.0; do recommends="$recommends, $(package_of "$so")"; done

size=$(du -k -s --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<CONTROL
Package: interlude
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $size
Depends: $depends
Recommends: $recommends
Section: sound
Priority: optional
Description: terminal player for music and audiobooks, with alarms
 Interlude plays music and audiobooks in a terminal: a full-screen player
 with a browser, queue, music library and playlists; books that keep their
 place, with chapters and bookmarks; alarms that duck or pause what plays;
 a control socket (interlude remote) and MPRIS for other programs.
CONTROL
(cd "$root" && find usr -type f | sort | xargs md5sum) > "$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
