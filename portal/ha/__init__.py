"""High availability: the beat lease, Redis through Sentinel, the database through Patroni (docs/deployment.md)."""
