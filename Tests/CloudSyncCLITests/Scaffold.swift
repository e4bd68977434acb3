// Module scaffold; replaced as the module fills in.
