#!/usr/bin/env bash
# The version of the tree: one string for `interlude --version`, the man page,
# the AppStream metainfo and the Debian package, so all four say the same.
# It is `git describe` written as a Debian version (digits first): a tag v1.2
# is 1.2, 5 commits past it 1.2+git5.HASH; without a tag 0~gitCOUNT.HASH (COUNT
# commits); +dirty with local changes; 0~unknown outside a git tree.
# --date: the last commit's date (YYYY-MM-DD).
set -eu
cd "$(dirname "$0")/.."
case "${1:-}" in
  --date) git log -1 --format=%cs 2>/dev/null || date -u +%F ;;
  "")
    if tag=$(git describe --tags --dirty 2>/dev/null); then
      echo "${tag#v}" | sed 's/-\([0-9]*\)-g\([0-9a-f]*\)/+git\1.\2/; s/-dirty$/+dirty/'
    elif describe=$(git describe --always --dirty 2>/dev/null); then
      echo "0~git$(git rev-list --count HEAD).${describe%-dirty}$([ "${describe%-dirty}" != "$describe" ] && echo +dirty)"
    else
      echo "0~unknown"
    fi ;;
  *) echo "usage: scripts/version.sh [--date]" >&2; exit 2 ;;
esac
