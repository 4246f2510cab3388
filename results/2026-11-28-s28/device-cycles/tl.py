import re,sys
pat=re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): (\w+):')
ev=[]
for l in open(sys.argv[1]):
    m=pat.match(l)
    if m: ev.append((float(m.group(4)),m.group(5)))
start=int(sys.argv[2]); n=int(sys.argv[3])
irqs=[i for i,e in enumerate(ev) if e[0]=='x' or e[1]=='irq_handler_entry']
t0=ev[irqs[start]][0]
# compress: runs of same kind
out=[];cur=None
for t,k in ev[irqs[start]:irqs[start+n]]:
    k={'irq_handler_entry':'IRQ','block_rq_complete':'C','block_rq_issue':'I','block_rq_insert':'Q'}[k]
    if cur and cur[0]==k: cur[2]+=1; cur[3]=t
    else:
        if cur: out.append(cur)
        cur=[k,t,1,t]
out.append(cur)
print(' '.join(f"{k}{c}@{(a-t0)*1e6:.0f}-{(b-t0)*1e6:.0f}" if c>1 else f"{k}@{(a-t0)*1e6:.0f}" for k,a,c,b in out))
