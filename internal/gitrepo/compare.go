package gitrepo

import (
	"errors"
	"net/url"
	"strings"
)

// ErrUnknownHost means a remote URL is not a GitHub or GitLab one, so no
// pull-request link can be built for it.
var ErrUnknownHost = errors.New("remote is not on github.com or gitlab.com")

// CompareURL builds the page that opens a pull request (GitHub) or merge
// request (GitLab) of branch into base, from the remote's URL in any of
// git's forms: https://host/owner/repo(.git), ssh://git@host/owner/repo,
// git@host:owner/repo.git. No token or API call is needed.
func CompareURL(remote, branch, base string) (string, error) {
	host, repoPath, ok := splitRemote(remote)
	if !ok {
		return "", ErrUnknownHost
	}
	project := "https://" + host + "/" + escapePath(repoPath)
	switch host {
	case "github.com":
		return project + "/compare/" + escapeRef(base) + "..." + escapeRef(branch) + "?expand=1", nil
	case "gitlab.com":
		q := url.Values{}
		q.Set("merge_request[source_branch]", branch)
		q.Set("merge_request[target_branch]", base)
		return project + "/-/merge_requests/new?" + q.Encode(), nil
	}
	return "", ErrUnknownHost
}

// splitRemote returns the host (lower case, without user and port) and the
// repository path (without ".git" and slashes around) of a remote URL.
func splitRemote(remote string) (host, repoPath string, ok bool) {
	remote = strings.TrimSpace(remote)
	if u, err := url.Parse(remote); err == nil && u.Host != "" &&
		(u.Scheme == "https" || u.Scheme == "http" || u.Scheme == "ssh" || u.Scheme == "git") {
		host, repoPath = u.Hostname(), u.Path
	} else if at, rest, found := strings.Cut(remote, ":"); found && !strings.Contains(at, "/") {
		// scp-like: [user@]host:owner/repo.git
		_, h, hasUser := strings.Cut(at, "@")
		if !hasUser {
			h = at
		}
		host, repoPath = h, rest
	} else {
		return "", "", false
	}
	repoPath = strings.TrimSuffix(strings.Trim(repoPath, "/"), ".git")
	if host == "" || strings.Count(repoPath, "/") < 1 || strings.Contains(repoPath, "..") {
		return "", "", false
	}
	return strings.ToLower(host), repoPath, true
}

// escapePath escapes each element of an owner/repo path.
func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// escapeRef escapes a branch name for a compare path; its slashes stay, as
// GitHub reads them.
func escapeRef(b string) string { return escapePath(b) }
