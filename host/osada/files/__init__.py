"""The host's file helpers: where its files are (paths), a file a user names read with one
sentence for what is wrong (userfile), a hardware config read strictly (config_file), a file
saved so that a crash never leaves it half written (savefile)."""
