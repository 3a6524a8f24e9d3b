/*
 * mpi_ring: a small MPI job for the VRF suite.
 *
 * Passes a token around the ring and checks an allreduce, then prints, from rank 0, one line per
 * rank: "RANK <r> <host> <device its sockets are bound to>" (the VRF, as the kernel sees it).
 *   --hold FILE  after the ring, wait (sleeping, not spinning) until FILE exists, then every rank
 *                tries to connect to each host:port listed in it (comma-separated, may be empty):
 *                "PROBE <rank> <target> connected|refused|timeout|error"
 */
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define LINE 160

/* The device a new socket of ours is bound to ("-": none, the default VRF). */
static void bound_device(char *dev, socklen_t size)
{
	int s = socket(AF_INET, SOCK_STREAM, 0);
	socklen_t len = size;

	memset(dev, 0, size);
	if (s < 0 || getsockopt(s, SOL_SOCKET, SO_BINDTODEVICE, dev, &len) < 0 || !dev[0])
		snprintf(dev, size, "-");
	if (s >= 0)
		close(s);
}

/* connected | refused | timeout | error: one TCP connect with a 3 s limit, closed at once. */
static const char *probe(const char *target)
{
	char host[64];
	const char *colon = strrchr(target, ':');
	struct sockaddr_in sa = { .sin_family = AF_INET };
	struct pollfd p;
	int s, err = 0;
	socklen_t len = sizeof(err);

	if (!colon || colon - target >= (int)sizeof(host))
		return "error";
	memcpy(host, target, colon - target);
	host[colon - target] = '\0';
	sa.sin_port = htons((unsigned short)atoi(colon + 1));
	if (inet_pton(AF_INET, host, &sa.sin_addr) != 1)
		return "error";
	s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (s < 0)
		return "error";
	if (connect(s, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
		close(s);
		return "connected";
	}
	if (errno != EINPROGRESS) {
		err = errno;
		close(s);
		return err == ECONNREFUSED ? "refused" : "error";
	}
	p.fd = s;
	p.events = POLLOUT;
	if (poll(&p, 1, 3000) != 1) {
		close(s);
		return "timeout";
	}
	getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len);
	close(s);
	return err == 0 ? "connected" : err == ECONNREFUSED ? "refused" : "error";
}

static void probe_all(int rank, char *targets)
{
	for (char *t = strtok(targets, ","); t; t = strtok(NULL, ","))
		printf("PROBE %d %s %s\n", rank, t, probe(t));
	fflush(stdout);
}

/* Wait for FILE (the test renames it into place whole), then return its contents. */
static char *hold(const char *file)
{
	static char targets[4096];
	struct stat st;
	size_t n = 0;
	FILE *f;

	while (stat(file, &st) != 0)
		usleep(200000);
	f = fopen(file, "r");
	if (f) {
		n = fread(targets, 1, sizeof(targets) - 1, f);
		fclose(f);
	}
	targets[n] = '\0';
	targets[strcspn(targets, "\n")] = '\0';
	return targets;
}

int main(int argc, char **argv)
{
	int rank, size, token = 0, sum = 0, one;
	char me[LINE], host[64], dev[32], *all = NULL, *hold_file = NULL;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int i = 1; i + 1 < argc; i += 2)
		if (strcmp(argv[i], "--hold") == 0)
			hold_file = argv[i + 1];
	gethostname(host, sizeof(host));
	host[sizeof(host) - 1] = '\0';
	bound_device(dev, sizeof(dev));
	snprintf(me, sizeof(me), "RANK %d %s %s", rank, host, dev);

	if (size > 1) {
		if (rank == 0) {
			token = 1;
			MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
			MPI_Recv(&token, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(&token, 1, MPI_INT, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			token++;
			MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
		}
	} else {
		token = 1;
	}
	one = rank + 1;
	MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		all = malloc((size_t)size * LINE);
	MPI_Gather(me, LINE, MPI_CHAR, all, LINE, MPI_CHAR, 0, MPI_COMM_WORLD);
	if (rank == 0) {
		for (int r = 0; r < size; r++)
			printf("%s\n", all + (size_t)r * LINE);
		printf("RING %s size=%d token=%d sum=%d\n",
		       token == size && sum == size * (size + 1) / 2 ? "ok" : "WRONG", size, token, sum);
		fflush(stdout);
		free(all);
	}
	if (hold_file)
		probe_all(rank, hold(hold_file));
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0) {
		printf("DONE\n");
		fflush(stdout);
	}
	MPI_Finalize();
	return 0;
}
