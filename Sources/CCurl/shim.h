// Debian's libcurl4-openssl-dev puts the headers under /usr/include/<triplet>/curl.
#include <curl/curl.h>
