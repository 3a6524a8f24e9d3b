/*
 * enclave_vrf: SPANK plugin that puts every Slurm job step into its tenant's VRF.
 *
 * PAM does not run for job steps, so each step is placed here, on the node that runs it, by
 * `enclave-agent enter --uid <job uid> --pid <pid>`, twice (the agent starts once per call, so
 * each task costs one start):
 *  - slurm_spank_init moves slurmstepd itself, before it opens the step's I/O and launch
 *    response connections to srun: an srun started inside a VRF (a login, a batch script)
 *    listens in that VRF and would never see them from the default VRF. Best effort: a
 *    failure here is only logged (slurmstepd's log; the user would not see it);
 *  - slurm_spank_task_init_privileged moves each task and is the gate: any failure of the
 *    agent fails the task (fail closed) with the agent's message on the task's stderr, so a
 *    task never runs in the default VRF.
 *
 * With the task, the agent also prints the tenant's InfiniBand partition key on this node's
 * fabric (`enter ... --pkey`; empty without one), and the task gets it so MPI uses the tenant's
 * partition, not the default
 * one where tenant ports are only limited members: UCX_IB_PKEY (UCX takes the 15-bit key) and
 * OMPI_MCA_btl_openib_pkey (Open MPI's openib BTL, the full-member form). A malformed answer
 * refuses the task.
 *
 * plugstack.conf:  required /usr/lib/slurm/enclave_vrf.so [agent=/path] [state_dir=/path]
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <slurm/spank.h>

SPANK_PLUGIN(enclave_vrf, 1);

#define DEFAULT_AGENT "/usr/local/bin/enclave-agent"
/* Must be negative: slurmstepd 22.05 tests `spank_task_privileged() < 0`, so a positive
 * ESPANK_ERROR (3000) is logged as a failure but the task is still executed (seen under a
 * real slurmd), which would leave the job in the default VRF. */
#define REFUSE (-1)

/* Parse plugstack.conf arguments; an unknown one is a configuration error, not ignored. */
static int parse_args(int ac, char **av, const char **agent, const char **state_dir)
{
	for (int i = 0; i < ac; i++) {
		if (strncmp(av[i], "agent=", 6) == 0 && av[i][6])
			*agent = av[i] + 6;
		else if (strncmp(av[i], "state_dir=", 10) == 0 && av[i][10])
			*state_dir = av[i] + 10;
		else {
			slurm_error("enclave_vrf: unknown plugstack.conf argument '%s'", av[i]);
			return -1;
		}
	}
	return 0;
}

/* Run the agent and wait for it; returns its exit status, or -1 if it did not exit cleanly.
 * With out != NULL, the agent's stdout (at most size - 1 bytes) is read into out. */
static int run_agent_output(char *const argv[], char *out, size_t size)
{
	/* A fixed environment: the agent is Python running as root, so variables such as
	 * PYTHONPATH inherited from slurmd must not be able to change what it executes. */
	static char *const envp[] = {
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"LANG=C.UTF-8", NULL
	};
	int status, fds[2] = { -1, -1 };
	size_t got = 0;
	pid_t child;

	if (out && pipe(fds) < 0) {
		slurm_error("enclave_vrf: pipe: %s", strerror(errno));
		return -1;
	}
	child = fork();
	if (child < 0) {
		slurm_error("enclave_vrf: fork: %s", strerror(errno));
		if (out) {
			close(fds[0]);
			close(fds[1]);
		}
		return -1;
	}
	if (child == 0) {
		if (out && dup2(fds[1], STDOUT_FILENO) < 0)
			_exit(127);
		execve(argv[0], argv, envp);
		/* No slurm_error() here (not async-signal-safe after fork); the parent reports 127. */
		_exit(127);
	}
	if (out) {
		ssize_t n;

		close(fds[1]);
		while (got + 1 < size && ((n = read(fds[0], out + got, size - 1 - got)) > 0 || (n < 0 && errno == EINTR)))
			got += n > 0 ? (size_t)n : 0;
		out[got] = 0;
		close(fds[0]);
	}
	while (waitpid(child, &status, 0) < 0) {
		if (errno != EINTR) {
			slurm_error("enclave_vrf: waitpid: %s", strerror(errno));
			return -1;
		}
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* "0x" and four lower-case hex digits, optionally one newline: what `enclave-agent enter --pkey` prints. */
static int valid_pkey(const char *text, unsigned *key)
{
	if (strncmp(text, "0x", 2) != 0)
		return 0;
	for (int i = 2; i < 6; i++)
		if (!isxdigit((unsigned char)text[i]) || isupper((unsigned char)text[i]))
			return 0;
	if (text[6] && strcmp(text + 6, "\n") != 0)
		return 0;
	*key = (unsigned)strtoul(text + 2, NULL, 16);
	return *key >= 0x0001 && *key <= 0x7ffe;
}

/* Export the partition key the agent answered to the task; none when the answer is empty. */
static int export_pkey(spank_t sp, const char *answer)
{
	char value[8];
	unsigned key;

	if (answer[0] == 0 || strcmp(answer, "\n") == 0)
		return ESPANK_SUCCESS; /* no InfiniBand partition for this tenant here */
	if (!valid_pkey(answer, &key)) {
		slurm_error("enclave_vrf: the agent answered a malformed partition key; task refused");
		return REFUSE;
	}
	snprintf(value, sizeof(value), "0x%04x", key);
	if (spank_setenv(sp, "UCX_IB_PKEY", value, 1) != ESPANK_SUCCESS)
		return REFUSE;
	snprintf(value, sizeof(value), "0x%04x", key | 0x8000);
	if (spank_setenv(sp, "OMPI_MCA_btl_openib_pkey", value, 1) != ESPANK_SUCCESS)
		return REFUSE;
	return ESPANK_SUCCESS;
}

/* `agent [--state-dir D] enter --uid <job uid> --pid <our pid> [--pkey]`; 0 when the agent moved
 * us. With answer != NULL, --pkey is asked for and the agent's answer read into answer. */
static int enter_vrf(spank_t sp, int ac, char **av, const char *what, char *answer, size_t size)
{
	const char *agent = DEFAULT_AGENT, *state_dir = NULL;
	char uid_s[16], pid_s[16], *argv[10];
	uid_t uid;
	int n = 0, rc;

	if (parse_args(ac, av, &agent, &state_dir) < 0)
		return REFUSE;
	if (spank_get_item(sp, S_JOB_UID, &uid) != ESPANK_SUCCESS) {
		slurm_error("enclave_vrf: cannot get the job's uid");
		return REFUSE;
	}
	snprintf(uid_s, sizeof(uid_s), "%u", (unsigned)uid);
	snprintf(pid_s, sizeof(pid_s), "%d", (int)getpid());

	argv[n++] = (char *)agent;
	if (state_dir) {
		argv[n++] = "--state-dir";
		argv[n++] = (char *)state_dir;
	}
	argv[n++] = "enter";
	argv[n++] = "--uid";
	argv[n++] = uid_s;
	argv[n++] = "--pid";
	argv[n++] = pid_s;
	if (answer)
		argv[n++] = "--pkey";
	argv[n] = NULL;

	rc = run_agent_output(argv, answer, size);
	if (rc != 0) {
		slurm_error("enclave_vrf: %s enter --uid %s --pid %s failed (%d); %s",
			    agent, uid_s, pid_s, rc, what);
		return REFUSE;
	}
	return ESPANK_SUCCESS;
}

int slurm_spank_init(spank_t sp, int ac, char **av)
{
	/* Only slurmstepd (remote context) runs steps; srun, sbatch and salloc load us too. */
	if (!spank_remote(sp))
		return ESPANK_SUCCESS;
	enter_vrf(sp, ac, av, "slurmstepd stays in the default VRF; each task must enter itself", NULL, 0);
	return ESPANK_SUCCESS;
}

int slurm_spank_task_init_privileged(spank_t sp, int ac, char **av)
{
	char answer[32];

	if (!spank_remote(sp))
		return ESPANK_SUCCESS;
	/* This callback runs inside the freshly forked task, before exec, so our own pid is the
	 * task pid; S_TASK_PID still reads -1 here (slurmstepd records it in the parent). */
	if (enter_vrf(sp, ac, av, "task refused", answer, sizeof(answer)) != ESPANK_SUCCESS)
		return REFUSE;
	return export_pkey(sp, answer);
}
