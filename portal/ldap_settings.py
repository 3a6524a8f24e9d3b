"""django-auth-ldap settings from ENCLAVE_LDAP_* (imported by portal.settings only when a directory is set).

StartTLS (or ldaps://) with the server's certificate checked against ENCLAVE_LDAP_CA_FILE (or the
system's CAs) is the default; ENCLAVE_LDAP_START_TLS=0 is refused unless the URI is ldaps://.
"""

import ldap
from django.core.exceptions import ImproperlyConfigured
from django_auth_ldap.config import (
    ActiveDirectoryGroupType,
    GroupOfNamesType,
    LDAPSearch,
    NestedActiveDirectoryGroupType,
    PosixGroupType,
)

from core.env import env_bool, env_int, env_str

GROUP_TYPES = {
    "groupOfNames": GroupOfNamesType,
    "posixGroup": PosixGroupType,
    "activeDirectory": ActiveDirectoryGroupType,
    "nestedActiveDirectory": NestedActiveDirectoryGroupType,
}


def ldap_settings(uri: str) -> dict:
    """The AUTH_LDAP_* settings for this directory."""
    start_tls = env_bool("ENCLAVE_LDAP_START_TLS", not uri.startswith("ldaps://"))
    if not start_tls and not uri.startswith("ldaps://") and not env_bool("ENCLAVE_LDAP_ALLOW_PLAINTEXT"):
        raise ImproperlyConfigured("ENCLAVE_LDAP_URI is plain ldap:// without StartTLS: passwords would cross "
                                   "the network in clear (ENCLAVE_LDAP_ALLOW_PLAINTEXT=1 to accept that)")  # fmt: skip
    group_type = env_str("ENCLAVE_LDAP_GROUP_TYPE", "groupOfNames")
    if group_type not in GROUP_TYPES:
        raise ImproperlyConfigured(f"ENCLAVE_LDAP_GROUP_TYPE must be one of {', '.join(GROUP_TYPES)}")
    group_filter = env_str("ENCLAVE_LDAP_GROUP_FILTER", "(objectClass=groupOfNames)")
    options = {ldap.OPT_X_TLS_REQUIRE_CERT: ldap.OPT_X_TLS_DEMAND, ldap.OPT_NETWORK_TIMEOUT: 5, ldap.OPT_TIMEOUT: 10}
    if ca_file := env_str("ENCLAVE_LDAP_CA_FILE"):
        options[ldap.OPT_X_TLS_CACERTFILE] = ca_file
    options[ldap.OPT_X_TLS_NEWCTX] = 0  # last: the TLS options above take effect on this connection
    return {
        "AUTH_LDAP_SERVER_URI": uri,
        "AUTH_LDAP_START_TLS": start_tls,
        "AUTH_LDAP_CONNECTION_OPTIONS": options,
        "AUTH_LDAP_BIND_DN": env_str("ENCLAVE_LDAP_BIND_DN"),
        "AUTH_LDAP_BIND_PASSWORD": env_str("ENCLAVE_LDAP_BIND_PASSWORD"),
        "AUTH_LDAP_USER_SEARCH": LDAPSearch(
            env_str("ENCLAVE_LDAP_USER_BASE"), ldap.SCOPE_SUBTREE, env_str("ENCLAVE_LDAP_USER_FILTER", "(uid=%(user)s)")
        ),  # fmt: skip
        "AUTH_LDAP_GROUP_SEARCH": LDAPSearch(env_str("ENCLAVE_LDAP_GROUP_BASE"), ldap.SCOPE_SUBTREE, group_filter),
        "AUTH_LDAP_GROUP_TYPE": GROUP_TYPES[group_type](),
        "AUTH_LDAP_USER_ATTR_MAP": {"first_name": "givenName", "last_name": "sn", "email": "mail"},
        "LDAP_UID_ATTR": env_str("ENCLAVE_LDAP_UID_ATTR", "uidNumber"),  # fills the user's POSIX account
        # Plain rule names also match a group DN's cn, in any OU the group search finds: opt-in only.
        "LDAP_MATCH_GROUP_CN": env_bool("ENCLAVE_LDAP_MATCH_GROUP_CN", False),
        "AUTH_LDAP_ALWAYS_UPDATE_USER": True,
        "AUTH_LDAP_CACHE_TIMEOUT": env_int("ENCLAVE_LDAP_CACHE_SECONDS", 0),
    }
