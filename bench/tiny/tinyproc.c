/* tinyproc.c - one process of make bench's scale load: K anonymous
 * mappings of KB kB each, every page touched, then ready (a byte on fd)
 * and asleep until killed. Exec'd, not forked from the benchmark, so each
 * is as small as the load: 1 MiB in 10 mappings plus what the C
 * runtime maps. Usage: tinyproc K KB FD */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	long k = atol(argv[1]), kb = atol(argv[2]);
	int fd = atoi(argv[3]);
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)((kb * 1024 + page - 1) / page * page);
	for (long i = 0; i < k; i++) {
		/* A hole between neighbours: the kernel cannot merge them. */
		char *p = mmap(NULL, len + (size_t)page, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return 1;
		munmap(p + len, (size_t)page);
		for (size_t o = 0; o < len; o += (size_t)page)
			p[o] = (char)(i + (long)o);
	}
	char c = 1;
	if (write(fd, &c, 1) != 1)
		return 1;
	close(fd);
	for (;;)
		pause();
}
