#!/usr/bin/env bash
# Prints the Debian mirror this machine's apt uses, so that image/build.sh fetches the
# card's packages from it and no mirror is written in the repository.
#
#   image/apt-mirror.sh main [ETC_APT]       the archive (default folder /etc/apt)
#   image/apt-mirror.sh security [ETC_APT]   the security archive
#
# The first enabled "deb" source whose URI is (security) or is not (main) a
# -security one: deb822 .sources files first, then one-line sources.list ones.
# Prints nothing when there is none.
set -euo pipefail

readonly KIND=${1:?main or security}
readonly ETC_APT=${2:-/etc/apt}

candidates() {
    for f in "$ETC_APT"/sources.list.d/*.sources; do
        [[ -r $f ]] || continue
        awk -v want="$KIND" '
            function flush() {
                if (deb && enabled) {
                    n = split(uris, list, " ")
                    for (i = 1; i <= n; i++) {
                        sec = list[i] ~ /-security\/?$/
                        if ((want == "security") == sec) { print list[i]; found = 1; exit }
                    }
                }
                uris = ""; deb = 0; enabled = 1
            }
            BEGIN { enabled = 1 }
            /^[ \t]*#/ { next }
            /^[ \t]*$/ { flush(); next }
            tolower($1) == "uris:" { $1 = ""; uris = $0 }
            tolower($1) == "types:" { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
            tolower($1) == "enabled:" { enabled = tolower($2) != "no" }
            END { if (!found) flush() }' "$f"
    done
    for f in "$ETC_APT"/sources.list "$ETC_APT"/sources.list.d/*.list; do
        [[ -r $f ]] || continue
        awk -v want="$KIND" '
            $1 == "deb" {
                i = 2
                if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
                sec = $i ~ /-security\/?$/
                if ((want == "security") == sec) { print $i; exit }
            }' "$f"
    done
}

found=$(candidates)
[[ -z $found ]] || printf '%s\n' "${found%%$'\n'*}"
