import collections,statistics,sys
d=collections.defaultdict(list)
for l in open(sys.argv[1]):
    p=l.split()
    if len(p)==2: d[p[0]].append(int(p[1]))
base=statistics.median(d['JDK']) if 'JDK' in d else None
for k,v in d.items(): print(f"{k:10} median {statistics.median(v):8.0f} mean {statistics.mean(v):8.0f}" + (f" /JDK {statistics.median(v)/base:.3f}" if base else ""), v)
