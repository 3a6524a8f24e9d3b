"""Directory sign-in and the group mapping."""
