/*
 * enclave-pam-exec: run `enclave-agent enter --pam` from pam_exec without the user's environment.
 *
 * pam_exec(8) gives the program it runs the PAM environment, which users can fill (pam_env
 * user_readenv reads ~/.pam_environment): LD_PRELOAD or PYTHONPATH there would run their code as
 * root in any dynamically linked program or interpreter started by pam_exec. This launcher is
 * linked statically, so no dynamic loader ever reads those variables; it keeps only PAM_USER and
 * PAM_TYPE (checked), sets a fixed PATH (as the SPANK plugin does) and executes the absolute
 * command given on the PAM line.
 *
 * The same users can also set PAM_USER and PAM_TYPE in that environment, and pam_exec puts the PAM
 * environment first and appends its own values after it: getenv() would return the user's. So the
 * launcher takes the LAST occurrence of each, the one pam_exec set (it always sets both).
 *
 *
 *
 *   session required pam_exec.so quiet type=open_session /usr/local/sbin/enclave-pam-exec /usr/local/bin/enclave-agent enter --pam
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SAFE_PATH "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
#define MAX_VALUE 256

/* A user name as NSS and the agent accept it: [A-Za-z0-9._@-], not starting with '-'. */
static int valid_user(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > MAX_VALUE || s[0] == '-')
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._@-") == n;
}

/* The PAM_TYPE values pam_exec sets. */
static int valid_type(const char *s)
{
	static const char *const types[] = {
		"auth", "account", "open_session", "close_session", "password", NULL
	};

	for (int i = 0; types[i]; i++)
		if (strcmp(s, types[i]) == 0)
			return 1;
	return 0;
}

extern char **environ;

/* The value of the last NAME=value in the environment: pam_exec appends its own after the user's. */
static const char *last_value(const char *name)
{
	size_t n = strlen(name);
	const char *found = NULL;

	for (char **e = environ; e && *e; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			found = *e + n + 1;
	return found;
}

int main(int argc, char **argv)
{
	static char user_env[MAX_VALUE + 16], type_env[MAX_VALUE + 16];
	const char *user = last_value("PAM_USER"), *type = last_value("PAM_TYPE");
	char *envp[4];
	int n = 0;

	if (argc < 2 || argv[1][0] != '/') {
		fprintf(stderr, "usage: enclave-pam-exec /absolute/command [arguments...]\n");
		return 2;
	}
	envp[n++] = SAFE_PATH;
	if (user) {
		if (!valid_user(user)) {
			fprintf(stderr, "enclave-pam-exec: refusing an unusual PAM_USER\n");
			return 1;
		}
		snprintf(user_env, sizeof(user_env), "PAM_USER=%s", user);
		envp[n++] = user_env;
	}
	if (type) {
		if (!valid_type(type)) {
			fprintf(stderr, "enclave-pam-exec: refusing an unknown PAM_TYPE\n");
			return 1;
		}
		snprintf(type_env, sizeof(type_env), "PAM_TYPE=%s", type);
		envp[n++] = type_env;
	}
	envp[n] = NULL;
	execve(argv[1], argv + 1, envp);
	fprintf(stderr, "enclave-pam-exec: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
