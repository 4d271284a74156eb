"""What a run produces: reports (``reporters``), the schema and API bundles of ``speclint build``,
and Agent Feedback Protocol answers."""
