# M156: one line per run of `pegemm model validate` output: the run, its period error and verdict,
# and each wait that misses as NAME(measured/predicted).  usage: awk -f validate_rows.awk REPORT
/\[out-of-sample\]|\[self-fit\]/ { if (name) print name, per, miss; name=$1; per=""; miss="" }
/tile_period/ { per=$6 " " $7 }
/MISS/ && !/tile_period/ { miss = miss " " $1 "(" $3 "/" $5 ")" }
END { if (name) print name, per, miss }
