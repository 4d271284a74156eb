"""The commands of ``speclint``, one module per command or command group (``speclint.frontends.cli``
registers them); what they share is ``speclint.frontends.options``."""
