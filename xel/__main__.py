from xel.cli import main

main()
