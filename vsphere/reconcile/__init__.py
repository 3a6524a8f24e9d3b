"""The reconciler's steps: the intent it converges to, the batches, discovery, NSX, filters, plan previews."""
