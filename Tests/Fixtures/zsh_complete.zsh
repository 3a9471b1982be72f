#!/bin/zsh -f
# zsh_complete.zsh FPATH_DIR 'COMMAND LINE': the matches zsh's completion
# system offers for the end of the line, one a line, as a user pressing Tab
# would get them. An interactive zsh in a pseudo-terminal (zpty) with compinit
# on FPATH_DIR; compadd wrapped so each match it adds is printed between two
# marker lines, and the shell leaves after the first completion.
zmodload zsh/zpty || exit 2
zpty z zsh -f -i
init=$(mktemp)
cat > $init <<INIT
PROMPT=
fpath=($1 \$fpath)
autoload -U compinit && compinit -u -D
zstyle ':completion:*' list-grouped false
zstyle ':completion:*' insert-tab false
zstyle ':completion:*' list-separator ''
bindkey '^I' complete-word
__mark() { print -r -- '<<interlude-matches>>' }
compprefuncs=(__mark)
comppostfuncs=(__mark exit)
compadd() {
  if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "\$@"; return; fi
  local -a __hits
  builtin compadd -A __hits "\$@"
  (( \$#__hits )) && print -rl -- \$__hits
  builtin compadd "\$@"
}
print -r -- '<<interlude-ready>>'
INIT
zpty -w z "source $init"
local line
repeat 50; do
  zpty -r z line || break
  [[ $line == *'<<interlude-ready>>'* ]] && break
done
zpty -w z "$2"$'\t'
integer marks=0
while zpty -r z line; do
  line=${line%$'\r'}
  line=${line%$'\n'}
  line=${line%$'\r'}
  if [[ $line == *'<<interlude-matches>>'* ]]; then
    (( marks++ ))
    (( marks == 2 )) && break
    continue
  fi
  (( marks == 1 )) && print -r -- $line
done
rm -f $init
zpty -d z
