/* test_key.h - one P-256 key made by `openssl ecparam -name prime256v1
 * -genkey` (SEC1 PEM), shared by the unit tests and fuzz targets that
 * sign: a change to a signed format shows as a changed known answer. */
#ifndef TEST_KEY_H
#define TEST_KEY_H

static const char test_key_sec1[] =
    "-----BEGIN EC PRIVATE KEY-----\n"
    "MHcCAQEEILA/ckw3QQD4fWC8LvktMyTak7fPTMlPQCSJeA5YCnj8oAoGCCqGSM49\n"
    "AwEHoUQDQgAEiuG0R+AsxjXm61b6xtmvnHlTKhcZXDMsfvlyzPuRxE1NCqJ2vEqc\n"
    "loWAfRQ2oqM64ajTInGKyBFyyTMJyS08AA==\n"
    "-----END EC PRIVATE KEY-----\n";

#endif
