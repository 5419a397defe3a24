# The common part of the probe-set reckonings (scripts/m33_reckoning.sh,
# scripts/m34_reckoning.sh), sourced after they set:
#   SET        the probe set (scripts/probe_reckoning.sh's PROBESET)
#   OLD        the schedule file of the model before the change
#   OLD_NAME, NEW_NAME   the two models' names in the tables
#   ARGS_VAR   PP_ARGS or BR_ARGS: which kernel's probes take --schedule OLD
#   NEW OUTDIR PREDICT_ONLY   as given to the caller
# and then call set_of (below) once per calibration set; `fails` counts the
# tables that could not be written.
HERE=$(dirname "$0")
if [ -z "$PREDICT_ONLY" ]; then
    for g in h100 h200; do
        [ -d "$NEW/$g/runs" ] || { echo "no such directory: $NEW/$g/runs" >&2; exit 2; }
    done
fi
[ -f "$OLD" ] || { echo "no such file: $OLD" >&2; exit 2; }
mkdir -p "$OUTDIR" || exit 2
fails=0

# table NAME RUNDIR CALDIR CAL_BRES_EPI MODEL_SCHEDULE_ARGS [BW [CAL_BPS]]
table() {
    local name=$1 runs=$2 cal=$3 calepi=$4 margs=$5
    shift 5
    [ -n "$PREDICT_ONLY" ] && runs=$cal # before the runs: the predictions alone
    if ! env PROBESET="$SET" "CAL${SET}_BRES_EPI=$calepi" "$ARGS_VAR=$margs" PREDICT_ONLY="$PREDICT_ONLY" \
        "$HERE/probe_reckoning.sh" "$runs" "$cal" "$@" >"$OUTDIR/$name.tsv.part"; then
        echo "failed: $name" >&2
        fails=$((fails + 1))
        return
    fi
    mv "$OUTDIR/$name.tsv.part" "$OUTDIR/$name.tsv" || fails=$((fails + 1))
}

# set_of PREFIX RUNS100 RUNS200 CAL100 CAL200 CAL_BRES_EPI UP DOWN F200: one calibration set, both models
set_of() {
    local p=$1 r100=$2 r200=$3 c100=$4 c200=$5 calepi=$6 up=$7 down=$8 f200=$9
    for m in "$OLD_NAME" "$NEW_NAME"; do
        local margs=
        [ "$m" = "$OLD_NAME" ] && margs="--schedule $OLD"
        table "${p}_${m}_h100" "$r100" "$c100" "$calepi" "$margs"
        table "${p}_${m}_h200" "$r200" "$c200" "$calepi" "$margs"
        table "${p}_${m}_h200_from_h100" "$r200" "$c100" "$calepi" "$margs" "$up"
        table "${p}_${m}_h100_from_h200" "$r100" "$c200" "$calepi" "$margs" "$down" "$f200"
    done
}
