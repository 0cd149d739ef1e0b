import sys

from osada.site.build import main

sys.exit(main())
