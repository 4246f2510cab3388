import re,sys,statistics
pat=re.compile(r'\[(\d+)\]\s+\S+\s+([\d.]+): block_rq_issue: \S+ \S+ (?:\d+ )?\(\) (\d+) \+')
cyc=[];cur=[]
for l in open(sys.argv[1]):
    if 'irq_handler_entry' in l:
        if cur: cyc.append(cur)
        cur=[]; continue
    m=pat.search(l)
    if m: cur.append(int(m.group(3))/2048)
sp=[];sk=[];desc=[]
for c in cyc[1:]:
    if len(c)<80: continue
    sp.append(max(c)-min(c)); sk.append(sum(abs(y-x) for x,y in zip(c,c[1:]))); desc.append(sum(1 for x,y in zip(c,c[1:]) if y<x))
q=lambda v:f'p10 {statistics.quantiles(v,n=10)[0]:5.0f} p50 {statistics.median(v):5.0f} p90 {statistics.quantiles(v,n=10)[8]:5.0f}'
print('span MiB', q(sp)); print('seek MiB', q(sk)); print('descents', q(desc))
allc=[x for c in cyc for x in c]; print('range', min(allc), max(allc))
