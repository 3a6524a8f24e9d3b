"""The environment the agent was started with: the last of duplicate names wins, as pam_exec appends its own."""

from enclave_agent.session import exec_environment


def test_the_last_of_duplicate_names_wins_because_pam_exec_appends_its_values_after_the_users():
    raw = b"PAM_USER=nobody\0PAM_TYPE=close_session\0PATH=/x\0PAM_USER=alice\0PAM_TYPE=open_session\0junk\0"
    assert exec_environment(raw) == {"PAM_USER": "alice", "PAM_TYPE": "open_session", "PATH": "/x"}


def test_a_value_may_contain_equals_signs():
    assert exec_environment(b"A=b=c\0") == {"A": "b=c"}
