import re,sys,statistics,collections
pat=re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): (\w+):')
ev=[]
for l in open(sys.argv[1]):
    m=pat.match(l)
    if m: ev.append((float(m.group(4)),m.group(5),m.group(1),int(m.group(3))))
irqs=[i for i,e in enumerate(ev) if e[1]=='irq_handler_entry']
first=[];full=[];cyc=[];ncomp=[];who=collections.Counter();whoall=collections.Counter()
inflight=0; 
# device in-flight: issued - completed
busy=collections.Counter(); last=ev[0][0]; dev=0
for t,k,c,cpu in ev:
    busy[min(dev//10,9)]+=t-last; last=t
    if k=='block_rq_issue': dev+=1; whoall[(re.sub(r'\d+','',c),cpu)]+=1
    elif k=='block_rq_complete': dev-=1
tot=sum(busy.values())
print('device in-flight time share by tens:', ' '.join(f'{k*10}:{v/tot:.2f}' for k,v in sorted(busy.items())))
for a,b in zip(irqs,irqs[1:]):
    t0=ev[a][0]; seg=ev[a+1:b]
    nc=sum(1 for e in seg if e[1]=='block_rq_complete'); ncomp.append(nc)
    iss=[e for e in seg if e[1]=='block_rq_issue']
    cyc.append((ev[b][0]-t0)*1e6)
    if iss:
        first.append((iss[0][0]-t0)*1e6); who[(re.sub(r'\d+','',iss[0][2]),iss[0][3])]+=1
        if len(iss)>=nc and nc>0: full.append((iss[nc-1][0]-t0)*1e6)
q=lambda v:f'p10 {statistics.quantiles(v,n=10)[0]:.0f} p50 {statistics.median(v):.0f} p90 {statistics.quantiles(v,n=10)[8]:.0f}'
print('interrupts',len(irqs),'completions/irq',q(ncomp))
print('cycle us',q(cyc))
print('first issue after irq us',q(first))
print('refill of all completed us',q(full), len(full))
print('first issuer',who.most_common(6))
print('all issuers',whoall.most_common(8))
