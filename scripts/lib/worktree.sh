# shellcheck shell=bash
# The checkout's working tree as it is, for a build or a test run in another root;
# sourced by image/build.sh and scripts/test-arm64.sh.

# Copies the working tree of checkout $1 into folder $2: tracked and new files, not
# ignored ones (no host build of the core, no caches), so that uncommitted changes
# are what gets built or tested.
copy_worktree() {
    (
        cd "$1" || exit 1
        git -c safe.directory="$1" ls-files -z --cached --others --exclude-standard \
            | while IFS= read -r -d '' f; do
                if [[ -f $f ]]; then printf '%s\0' "$f"; fi
            done \
            | tar --null -T - -cf -
    ) | tar -C "$2" -xf -
}

# The revision of checkout $1, as git describes it ("-dirty" with uncommitted changes).
worktree_revision() {
    git -c safe.directory="$1" -C "$1" describe --always --dirty 2>/dev/null || echo unknown
}
