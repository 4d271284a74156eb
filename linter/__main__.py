from speclint.cli import main

main()
