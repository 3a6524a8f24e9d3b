/*
 * enclave_vrf: SPANK plugin that puts every Slurm job step into its tenant's VRF.
 *
 * PAM does not run for job steps, so each step is placed here, on the node that runs it, by
 * `enclave-agent enter --uid <job uid> --pid <pid>`, twice:
 *  - slurm_spank_init moves slurmstepd itself, before it opens the step's I/O and launch
 *    response connections to srun: an srun started inside a VRF (a login, a batch script)
 *    listens in that VRF and would never see them from the default VRF. Best effort: a
 *    failure here is only logged (slurmstepd's log; the user would not see it);
 *  - slurm_spank_task_init_privileged moves each task and is the gate: any failure of the
 *    agent fails the task (fail closed) with the agent's message on the task's stderr, so a
 *    task never runs in the default VRF.
 *
 * plugstack.conf:  required /usr/lib/slurm/enclave_vrf.so [agent=/path] [state_dir=/path]
 */
#include <errno.h>
#include <stdio.h>
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

/* Run the agent and wait for it; returns its exit status, or -1 if it did not exit cleanly. */
static int run_agent(char *const argv[])
{
	/* A fixed environment: the agent is Python running as root, so variables such as
	 * PYTHONPATH inherited from slurmd must not be able to change what it executes. */
	static char *const envp[] = {
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"LANG=C.UTF-8", NULL
	};
	int status;
	pid_t child = fork();

	if (child < 0) {
		slurm_error("enclave_vrf: fork: %s", strerror(errno));
		return -1;
	}
	if (child == 0) {
		execve(argv[0], argv, envp);
		/* No slurm_error() here (not async-signal-safe after fork); the parent reports 127. */
		_exit(127);
	}
	while (waitpid(child, &status, 0) < 0) {
		if (errno != EINTR) {
			slurm_error("enclave_vrf: waitpid: %s", strerror(errno));
			return -1;
		}
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* `agent [--state-dir D] enter --uid <job uid> --pid <our pid>`; 0 when the agent moved us. */
static int enter_vrf(spank_t sp, int ac, char **av, const char *what)
{
	const char *agent = DEFAULT_AGENT, *state_dir = NULL;
	char uid_s[16], pid_s[16], *argv[9];
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
	argv[n] = NULL;

	rc = run_agent(argv);
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
	enter_vrf(sp, ac, av, "slurmstepd stays in the default VRF; each task must enter itself");
	return ESPANK_SUCCESS;
}

int slurm_spank_task_init_privileged(spank_t sp, int ac, char **av)
{
	if (!spank_remote(sp))
		return ESPANK_SUCCESS;
	/* This callback runs inside the freshly forked task, before exec, so our own pid is the
	 * task pid; S_TASK_PID still reads -1 here (slurmstepd records it in the parent). */
	return enter_vrf(sp, ac, av, "task refused");
}
