"""The notebook's grading interface: ``grade``, ``grade_report``, ``node_of``, ``test_tree``,
``try_on``, ``explore`` and the pictures of a verdict."""
