#!/usr/bin/env bash
# Builds wb (release) and installs it for this user: the program in ~/.local/bin, the man page
# in ~/.local/share/man/man1 (so that `man wb` finds it), and the bash, zsh and fish completion
# scripts where those shells look for them. PREFIX=/usr/local Scripts/install.sh installs there.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh
prefix=${PREFIX:-$HOME/.local}
swift build -c release --product wb >&2
bin="$(swift build -c release --show-bin-path)/wb"
install -d "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
  "$prefix/share/zsh/site-functions"
install -m 755 "$bin" "$prefix/bin/wb"
install -m 644 wb.1 "$prefix/share/man/man1/wb.1"
"$bin" --generate-completion-script bash > "$prefix/share/bash-completion/completions/wb"
"$bin" --generate-completion-script zsh > "$prefix/share/zsh/site-functions/_wb"
if [ "$prefix" = "$HOME/.local" ]; then fish_dir="${XDG_CONFIG_HOME:-$HOME/.config}/fish/completions"
else fish_dir="$prefix/share/fish/vendor_completions.d"; fi
install -d "$fish_dir"
"$bin" --generate-completion-script fish > "$fish_dir/wb.fish"
echo "installed wb, its man page (man wb) and completion scripts under $prefix" >&2
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "note: $prefix/bin is not on your PATH" >&2 ;; esac
