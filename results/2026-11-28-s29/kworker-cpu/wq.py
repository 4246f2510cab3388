import re,sys,collections
pat=re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+(\S+)\s+([\d.]+): (\w+): (.*)')
for f in sys.argv[1:]:
    q=collections.Counter(); ex=collections.Counter(); iss=collections.Counter()
    for l in open(f):
        m=pat.match(l)
        if not m: continue
        comm,cpu,flags,ev,rest=m.group(1),m.group(3),m.group(4),m.group(6),m.group(7)
        c=re.sub(r'\d+','',comm).strip()
        if ev=='workqueue_queue_work' and 'blk_mq_run_work_fn' in rest:
            ctx='hardirq' if 'h' in flags[2:3] or 'h' in flags else ('softirq' if 's' in flags else 'task:'+c)
            q[(ctx,'cpu'+cpu, re.search(r'cpu=(\d+)$',rest).group(1))]+=1
        elif ev=='workqueue_execute_start' and 'blk_mq_run_work_fn' in rest:
            ex['cpu'+cpu]+=1
        elif ev=='block_rq_issue':
            iss[(c,'cpu'+cpu)]+=1
    print(f); print('  queued (context, on cpu, target cpu):', q.most_common(8)); print('  executed:', dict(ex)); print('  issuers:', iss.most_common(5))
