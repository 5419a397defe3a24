#!/usr/bin/python3
import sys, re
for path in sys.argv[1:]:
    rows = {}; cur = None; order = []
    for line in open(path):
        m = re.match(r'== (\S+): --epi-delay (\d+)', line)
        if m: cur = m.group(1); order.append(cur); rows[cur] = {'D': int(m.group(2))}; continue
        m = re.match(r'\s+(fused kernel \(this project\)|bres without [^(]*\(ablation\))\s+([\d.]+) ms', line)
        if m and cur: rows[cur][m.group(1).replace('bres without ', '-').replace(' (ablation)', '').replace('fused kernel (this project)', 'fused')] = float(m.group(2))
        m = re.search(r'SM clock (\d+) MHz', line)
        if m and cur: rows[cur]['clk'] = int(m.group(1))
    cols = ['fused', '-D-stores', '-A-loads', '-A-loads D-stores', '-wgmma']
    print(path); print('%-26s %5s %5s ' % ('run', 'D', 'clk') + ' '.join('%18s' % c for c in cols))
    base = rows[order[0]]
    for r in order:
        x = rows[r]
        print('%-26s %5d %5s ' % (r, x['D'], x.get('clk', '')) + ' '.join('%8.4f (%+5.1f%%)' % (x[c], 100 * (x[c] / base[c] - 1)) for c in cols))
