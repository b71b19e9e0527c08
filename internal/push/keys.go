package push

import (
	"bytes"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Keys is the server's VAPID key pair, both base64url without padding:
// PublicKey the uncompressed P-256 point (65 bytes, the browser's
// applicationServerKey), PrivateKey the 32-byte scalar.
type Keys struct {
	PublicKey  string `json:"publicKey"`
	PrivateKey string `json:"privateKey"`
}

var b64 = base64.RawURLEncoding

// LoadKeys reads the key pair from path (vapid.json in the data dir), or
// makes one and stores it there (0600) when the file does not exist. A
// file that cannot be read or makes no valid pair is an error, never
// replaced: new keys would invalidate every browser's subscription.
func LoadKeys(path string) (Keys, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return newKeys(path)
	}
	if err != nil {
		return Keys{}, fmt.Errorf("read push keys: %w", err)
	}
	var k Keys
	if err := json.Unmarshal(b, &k); err != nil {
		return Keys{}, fmt.Errorf("push keys %s are not valid JSON (move the file away to make new ones; every browser then subscribes again): %w", path, err)
	}
	if err := k.check(); err != nil {
		return Keys{}, fmt.Errorf("push keys %s: %w (move the file away to make new ones; every browser then subscribes again)", path, err)
	}
	return k, nil
}

func newKeys(path string) (Keys, error) {
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return Keys{}, fmt.Errorf("generate push keys: %w", err)
	}
	k := Keys{PublicKey: b64.EncodeToString(priv.PublicKey().Bytes()), PrivateKey: b64.EncodeToString(priv.Bytes())}
	b, err := json.MarshalIndent(k, "", "  ")
	if err != nil {
		return Keys{}, fmt.Errorf("encode push keys: %w", err)
	}
	if err := writeFile(path, append(b, '\n')); err != nil {
		return Keys{}, fmt.Errorf("store push keys: %w", err)
	}
	return k, nil
}

// check verifies that the private key is a P-256 scalar whose public key
// is PublicKey.
func (k Keys) check() error {
	d, err := b64.DecodeString(k.PrivateKey)
	if err != nil {
		return fmt.Errorf("privateKey is not base64url: %w", err)
	}
	priv, err := ecdh.P256().NewPrivateKey(d)
	if err != nil {
		return fmt.Errorf("privateKey is not a P-256 key: %w", err)
	}
	pub, err := b64.DecodeString(k.PublicKey)
	if err != nil {
		return fmt.Errorf("publicKey is not base64url: %w", err)
	}
	if !bytes.Equal(pub, priv.PublicKey().Bytes()) {
		return errors.New("publicKey does not belong to privateKey")
	}
	return nil
}
