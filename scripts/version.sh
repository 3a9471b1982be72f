#!/usr/bin/env bash
# The version of the tree, one place for `interlude --version`, the man page
# and the Debian package. No argument: `git describe` (tags, else the commit,
# "-dirty" with local changes). --debian: the same as a Debian version (digits
# first: 0~gitCOUNT.HASH without a tag). --date: the last commit's date (YYYY-MM-DD).
set -eu
cd "$(dirname "$0")/.."
describe=$(git describe --tags --always --dirty 2>/dev/null || echo unknown)
case "${1:-}" in
  --date) git log -1 --format=%cs 2>/dev/null || date -u +%F ;;
  --debian)
    if tag=$(git describe --tags --dirty 2>/dev/null); then
      echo "${tag#v}" | sed 's/-\([0-9]*\)-g\([0-9a-f]*\)/+git\1.\2/; s/-dirty$/+dirty/'
    else
      echo "0~git$(git rev-list --count HEAD 2>/dev/null || echo 0).${describe%-dirty}$([ "${describe%-dirty}" != "$describe" ] && echo +dirty)"
    fi ;;
  *) echo "$describe" ;;
esac
