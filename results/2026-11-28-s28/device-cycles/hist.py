import re,sys,collections,statistics
pat=re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): (\w+):')
ev=[]
for l in open(sys.argv[1]):
    m=pat.match(l)
    if m: ev.append((float(m.group(4)),m.group(5)))
irqs=[i for i,e in enumerate(ev) if e[1]=='irq_handler_entry']
h=collections.Counter(); cyc=collections.defaultdict(list)
tot=0
for a,b in zip(irqs,irqs[1:]):
    nc=sum(1 for e in ev[a+1:b] if e[1]=='block_rq_complete'); tot+=nc
    bucket=nc//10*10; h[bucket]+=1; cyc[bucket].append((ev[b][0]-ev[a][0])*1e6)
dur=ev[irqs[-1]][0]-ev[irqs[0]][0]
print('completions/s', round(tot/dur), 'irqs', len(irqs))
for k in sorted(h): print(f'{k:3}-{k+9}: {h[k]:5} irqs, cycle after p50 {statistics.median(cyc[k]):.0f} us')
