import re,sys,collections,statistics
pat=re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): (\w+):')
ev=[]
for l in open(sys.argv[1]):
    m=pat.match(l)
    if m: ev.append((float(m.group(4)),m.group(5)))
irqs=[i for i,e in enumerate(ev) if e[1]=='irq_handler_entry']
A=[];B=[];C=[];D=[];E=[]
for a,b in zip(irqs,irqs[1:]):
    seg=ev[a+1:b]
    nc=sum(1 for e in seg if e[1]=='block_rq_complete')
    if nc<80: continue
    iss=[e[0] for e in seg if e[1]=='block_rq_issue']
    comp=[e[0] for e in seg if e[1]=='block_rq_complete']
    if not iss: continue
    t0=ev[a][0]
    A.append((comp[-1]-t0)*1e6)   # irq -> last completion processed
    B.append((iss[-1]-t0)*1e6)    # irq -> last issue
    C.append((ev[b][0]-iss[-1])*1e6)  # last issue -> next irq
    D.append((ev[b][0]-t0)*1e6)
    E.append(len(iss))
q=lambda v:f'p10 {statistics.quantiles(v,n=10)[0]:4.0f} p50 {statistics.median(v):4.0f} p90 {statistics.quantiles(v,n=10)[8]:4.0f}'
print('irq->last completion', q(A)); print('irq->last issue', q(B)); print('last issue->next irq', q(C)); print('cycle', q(D)); print('issues per cycle', q(E))
