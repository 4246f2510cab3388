import statistics,collections,sys
d=collections.defaultdict(lambda: collections.defaultdict(list))
for l in open(sys.argv[1]):
    f=l.split(); k=f[0]
    d[k]['total'].append(float(f[4])); d[k]['open'].append(float(f[6])); d[k]['io'].append(float(f[8]))
for k,v in d.items(): print(k, ' '.join(f"{m} {statistics.median(x):.2f} [{min(x):.1f}-{max(x):.1f}]" for m,x in v.items()))
