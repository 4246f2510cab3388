#include <stdlib.h>
#include <time.h>
int main(int c,char**v){double s=atof(v[1]);time_t e=time(0)+(time_t)s+1;volatile long x=0;while(time(0)<e)for(int i=0;i<1000000;i++)x++;return 0;}
