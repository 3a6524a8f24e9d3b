"""The fabric agent: realizes the portal's InfiniBand partitions on a subnet manager and reports the tables."""
