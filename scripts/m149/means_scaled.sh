#!/usr/bin/env bash
# M149 (a trial, not the model): each run validated from CAL with the fitted
# means of store_drain (SCALE_SD=1) and kblock_load (SCALE_KL=1) moved by
# --delta to their value at the run's SM clock (x run clock / CAL clock:
# time fixed in ns), against the built-in prediction.
#   SCALE_SD=1 SCALE_KL=1 scripts/m149/means_scaled.sh CAL.h5 RUN.h5...
P=${PEGEMM:-$(cd "$(dirname "$0")/../.." && pwd)/build/cli/pegemm}
cal=$1; shift
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cc=$(/usr/bin/python3 -c "import h5py; print(h5py.File('$cal','r')['kernel'].attrs['sm_clock_hz'])")
$P model fit $cal -q -o $tmp/cal.sched >/dev/null
sd=$(grep "^latency store_drain" $tmp/cal.sched | sed 's/.*mean=\([0-9.]*\).*/\1/')
kl=$(grep "^latency kblock_load" $tmp/cal.sched | sed 's/.*mean=\([0-9.]*\).*/\1/')
for r in "$@"; do
  rc=$(/usr/bin/python3 -c "import h5py; print(h5py.File('$r','r')['kernel'].attrs['sm_clock_hz'])")
  read dsd dkl ratio < <(/usr/bin/python3 -c "r=$rc/$cc; print($sd*(r-1), $kl*(r-1), r)")
  base=$($P model validate $cal $r 2>&1 | grep -A2 "$(basename $r)  \[" | grep tile_period | awk '{print $(NF-1), $NF}')
  new=$($P model validate $cal $r ${SCALE_SD:+--delta store_drain.mean=$dsd} ${SCALE_KL:+--delta kblock_load.mean=$dkl} 2>&1 | grep -A8 "$(basename $r)  \[")
  np=$(echo "$new" | grep tile_period | awk '{print $(NF-1), $NF}')
  nw=$(echo "$new" | grep -c "MISS" )
  printf "%-36s clock x%.3f  base %s  scaled %s  (misses %s)\n" $(basename $r) $ratio "$base" "$np" "$nw"
done
