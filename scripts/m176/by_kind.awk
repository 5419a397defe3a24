# docs/experiments.md M176: run_clock_trial.py's lines totalled by kind of probe
# (shape: another K, N, M, ring depth or a prefetch build)
function kind(n){ if(n ~ /_(k|n|m)[0-9]/ || n ~ /_s[23]_/ || n ~ /_pf/) return "shape"; if(n ~ /_ml_0*[1-9]/) return "spin"; if(n ~ /_epi_0*[1-9]/) return "epi"; if (n ~ /both/) return "both"; return "zero"}
{k=kind($2); e=$3; sub("%","",e); e+=0; n[k]++; s[k]+=e; a[k]+=(e<0?-e:e); if($4=="ok")p[k]++; if($5=="ok")w[k]++; if($4=="ok"&&$5=="ok")b[k]++; N++; if($4=="ok")P++; if($5=="ok")W++; if($4=="ok"&&$5=="ok")B++}
END{for(k in n) printf "%-6s %3d mean %+.2f%% |%.2f%%| periods %d waits %d both %d\n",k,n[k],s[k]/n[k],a[k]/n[k],p[k],w[k],b[k]; printf "all %d periods %d waits %d both %d\n",N,P,W,B}
