# shellcheck shell=bash
# The wall time of each stage of a long run, and the summary printed at its end;
# sourced by image/build.sh and scripts/test-arm64.sh, which define say().
#
#   stages_begin 9            the clock starts; 9: the width of the stage names' column
#   stage_done NAME [NOTE]    the stage just finished (said at once, kept for the summary)
#   stage_summary             every stage's time, then the total

stages_begin() {
    STAGE_COLUMN=$1
    STAGES_STARTED=$SECONDS
    STAGE_STARTED=$SECONDS
    STAGE_TIMES=()
}

# One line of the summary: $1 name, $2 seconds, $3 optional note.
stage_line() {
    printf "%-${STAGE_COLUMN}s %5d s  (%dm%02ds)%s" "$1" "$2" $(($2 / 60)) $(($2 % 60)) "${3:+  $3}"
}

stage_done() {
    local took=$((SECONDS - STAGE_STARTED))
    STAGE_TIMES+=("$(stage_line "$1" "$took" "${2:-}")")
    say "$1: ${took} s${2:+ ($2)}"
    STAGE_STARTED=$SECONDS
}

stage_summary() {
    printf '  %s\n' "${STAGE_TIMES[@]}" "$(stage_line total $((SECONDS - STAGES_STARTED)))"
}
