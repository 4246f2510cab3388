import sys,collections,statistics as st
d=collections.defaultdict(list)
for l in open(sys.argv[1]):
    f=l.split()
    if len(f)==4: d[f[1]].append(int(f[3]))
base=d.get('jdk')
for k,v in d.items():
    print(f"{k:6s} n={len(v)} median={st.median(v):8.0f} mean={st.mean(v):8.0f}" + (f"  ratio-med={st.median(v)/st.median(base):.3f} ratio-mean={st.mean(v)/st.mean(base):.3f}" if base else ""))
