"""Pages a model chooser needs: tasks, family matrices, two-model comparisons."""
