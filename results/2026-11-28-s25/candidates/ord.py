import sys, re, statistics
for path in sys.argv[1:]:
    iss=[]
    for line in open(path):
        m=re.match(r'\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): block_rq_issue: 254,0 \S+ (?:\d+ )?\(\) (\d+) \+', line)
        if m: iss.append(int(m.group(5)))
    d=[b-a for a,b in zip(iss,iss[1:])]
    asc=sum(1 for x in d if x>0)/len(d)
    med=statistics.median(abs(x) for x in d)
    print(f"{path}: issues {len(iss)} ascending {100*asc:.1f}% median |step| {med*512/1e6:.2f} MB")
