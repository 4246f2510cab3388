#!/bin/bash
# snap: print counters: virtio-req RES CAL TLB LOC ctxt user sys idle steal
awk '/virtio1-req/{v=$2+$3} /RES:/{r=$2+$3} /CAL:/{c=$2+$3} /TLB:/{t=$2+$3} /LOC:/{l=$2+$3} END{printf "%d %d %d %d %d ", v,r,c,t,l}' /proc/interrupts
awk '/^ctxt/{x=$2} /^cpu /{u=$2+$3; s=$4+$7+$8; i=$5+$6; st=$9} END{printf "%d %d %d %d %d\n", x,u,s,i,st}' /proc/stat
