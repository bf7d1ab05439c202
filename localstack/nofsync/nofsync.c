/* nofsync: fsync and its kin as no-ops, for a process given this library
 * with LD_PRELOAD. Only for a benchmark's DynamoDB Local, whose table is
 * rebuilt rather than recovered after a crash: on disk its SQLite waits on
 * a sync per write, which made the national seed 2.4 times slower.
 * `make bench-national NATIONAL_NO_FSYNC=1` builds and uses it. */
int fsync(int fd) { (void)fd; return 0; }
int fdatasync(int fd) { (void)fd; return 0; }
int syncfs(int fd) { (void)fd; return 0; }
void sync(void) {}
