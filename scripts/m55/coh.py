#!/usr/bin/python3
# Phase coherence of tile starts across SMs: is the GPU's SM population synchronized?
import sys, h5py, numpy as np
def load(p):
    f = h5py.File(p, 'r'); t = f['/trace']
    d = {k: t[k][:] for k in ('sm', 'role', 'tile', 'phase', 'begin', 'end')}
    d['pn'] = [x.decode() if isinstance(x, bytes) else x for x in t.attrs['phase_names']]
    d['rn'] = [x.decode() if isinstance(x, bytes) else x for x in t.attrs['role_names']]
    d['aclk'] = t['anchor_clock'][:]; d['ans'] = t['anchor_globaltimer_ns'][:]
    d['hz'] = f['/kernel'].attrs['sm_clock_hz']; d['epi'] = f['/kernel'].attrs['epi_delay']
    return d
def intervals(d, name):
    """{(sm, tile): (begin, end)} of one phase of a loaded trace"""
    m = d['phase'] == d['pn'].index(name)
    return {(s, t): (b, e) for s, t, b, e in zip(d['sm'][m], d['tile'][m], d['begin'][m], d['end'][m])}

def main():
  for p in sys.argv[1:]:
      d = load(p)
      # global time in cycles: (begin - anchor_clock[sm]) + anchor_ns*hz
      sm = d['sm']; g = (d['begin'] - d['aclk'][sm]) + (d['ans'][sm] - d['ans'].min()) * d['hz'] * 1e-9
      # tile start = earliest begin per tile
      tiles = d['tile']; order = np.lexsort((g, tiles))
      ut, first = np.unique(tiles[order], return_index=True)
      ts = g[order][first]; tsm = sm[order][first]
      # per SM sorted starts
      res = []
      per = {}
      for s in np.unique(tsm):
          x = np.sort(ts[tsm == s]); per[s] = x
      gaps = np.concatenate([np.diff(x) for x in per.values()])
      P = np.median(gaps)
      # steady window: tile index 20..T-5 of each SM
      allt = []; idx = []
      for s, x in per.items():
          n = len(x); sel = np.arange(n)
          m = (sel >= 20) & (sel < n - 5); allt.append(x[m]); idx.append(sel[m])
      allt = np.concatenate(allt); idx = np.concatenate(idx)
      # Rayleigh coherence per tile index k across SMs
      Rk = []
      for k in np.unique(idx):
          ph = 2 * np.pi * allt[idx == k] / P
          Rk.append(abs(np.exp(1j * ph).mean()))
      # spread of k-th start across SMs (cycles), minus drift: std of (t - k*P) per k
      sd = [np.std(allt[idx == k]) for k in np.unique(idx)]
      print(f"{p.split('/')[-2]}/{p.split('/')[-1]:28s} epi={d['epi']:5d} P={P:7.0f} R(mean over k)={np.mean(Rk):.3f} R(k=20..25)={np.mean(Rk[:5]):.3f} R(last5)={np.mean(Rk[-5:]):.3f} spread_sd={np.mean(sd):7.0f} ntiles/sm={len(x)}")

if __name__=='__main__': main()
