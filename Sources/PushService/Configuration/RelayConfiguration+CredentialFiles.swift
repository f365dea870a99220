import ConfigSupport

extension RelayConfiguration {
    /// Every file the configuration reads a secret or a private key from, each once, named by
    /// its key: `{file:}` secrets, and each provider's keys and secret files
    /// (`ProviderSettings.credentialFiles`: APNs signing keys, .p12 files, FCM service accounts, …). Certificates and CA files are public and left out; so are systemd credentials
    /// (`{credential:}`, under `$CREDENTIALS_DIRECTORY`), which systemd keeps private.
    /// A new secret or key in the configuration belongs here too.
    public func credentialFiles(environment: ConfigurationEnvironment) -> [CredentialFile] {
        var files: [CredentialFile] = []
        func secret(_ secret: Secret?, _ key: String) {
            if case .file(let path)? = secret?.source { files.append(CredentialFile(key: key + ".file", path: path)) }
        }
        func key(_ path: String, _ key: String) { files.append(CredentialFile(key: key, path: path)) }
        secret(metrics.token, "metrics.token")
        if case .postgres(let settings) = database.backend { secret(settings.password, "database.postgres.password") }
        for (index, app) in apps.enumerated() {
            let name = "apps[\(index)]"
            secret(app.apiToken, "\(name).api_token")
            secret(app.webhookSecret, "\(name).webhook_secret")
            for settings in app.providers.all {
                for file in settings.credentialFiles { key(file.path, "\(name).\(settings.provider).\(file.key)") }
            }
        }
        for (index, user) in console.users.enumerated() { secret(user.secret, "console.users[\(index)].secret") }
        let credentials = environment.credentialsDirectory
        var seen: Set<String> = []
        return files.filter { file in
            if let credentials, file.path.hasPrefix(credentials.hasSuffix("/") ? credentials : credentials + "/") { return false }
            return seen.insert(file.path).inserted
        }
    }
}
