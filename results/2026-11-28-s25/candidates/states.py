import sys, os, time, collections
pid=sys.argv[1]
tids=[t for t in os.listdir(f'/proc/{pid}/task') if open(f'/proc/{pid}/task/{t}/comm').read().startswith(('hpio-uring','ForkJoin','iou'))]
c=collections.Counter()
for i in range(2000):
    for t in tids:
        try:
            st=open(f'/proc/{pid}/task/{t}/stat').read().split(')')[1].split()[0]
            w=open(f'/proc/{pid}/task/{t}/wchan').read()
            name=open(f'/proc/{pid}/task/{t}/comm').read().strip()[:14]
            c[(name, st, w)]+=1
        except Exception: pass
    time.sleep(0.001)
for k,v in c.most_common(12): print(v,k)
