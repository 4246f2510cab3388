import re,sys,statistics
pat=re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): (\w+):')
ev=[]
for l in open(sys.argv[1]):
    m=pat.match(l)
    if m: ev.append((float(m.group(4)),m.group(5)))
irqs=[i for i,e in enumerate(ev) if e[1]=='irq_handler_entry']
F=[];G=[];H=[]
for a,b in zip(irqs,irqs[1:]):
    seg=ev[a+1:b]
    if sum(1 for e in seg if e[1]=='block_rq_complete')<80: continue
    iss=[e[0] for e in seg if e[1]=='block_rq_issue']
    if len(iss)<80: continue
    t0=ev[a][0]
    F.append((iss[0]-t0)*1e6); G.append((ev[b][0]-iss[0])*1e6); H.append((iss[len(iss)//2]-t0)*1e6)
q=lambda v:f'p10 {statistics.quantiles(v,n=10)[0]:4.0f} p50 {statistics.median(v):4.0f} p90 {statistics.quantiles(v,n=10)[8]:4.0f}'
print(f'{sys.argv[1]:22} irq->first issue {q(F)} | half issued {q(H)} | first issue->next irq {q(G)}')
