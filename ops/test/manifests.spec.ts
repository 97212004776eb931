import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { execute, root, tool } from './tools';

/** The Kubernetes version whose schemas the manifests must satisfy (the oldest a team is expected to run). */
const kubernetesVersion = '1.32.0';
const overlays = readdirSync(join(root, 'k8s', 'overlays'));

interface Container {
  name: string;
  env?: { name: string; value?: string }[];
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean; capabilities?: { drop?: string[] } };
  readinessProbe?: { httpGet?: { path: string } };
  livenessProbe?: { httpGet?: { path: string; port?: string | number } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}

interface PodSpec {
  automountServiceAccountToken?: boolean;
  securityContext?: { runAsNonRoot?: boolean; seccompProfile?: { type: string } };
  containers: Container[];
}

interface Resource {
  kind: string;
  metadata: { name: string; namespace?: string };
  spec?: { template?: { spec: PodSpec }; selector?: { matchLabels?: Record<string, string> }; scaleTargetRef?: { name: string } };
}

/**
 * Every overlay renders with kustomize, validates against the Kubernetes schemas offline (kubernetes-validate, strict:
 * an unknown field is an error) and passes kube-score with no warning; the exemptions are `kube-score/ignore`
 * annotations in the manifests, each with its reason beside it. Then what the schemas cannot say: the pods' hardening,
 * probes on the real health endpoints, and no secret value in a manifest.
 */
describe.each(overlays)('k8s/overlays/%s', (overlay) => {
  let directory: string;
  let rendered: string;
  let resources: Resource[];

  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), `shiliu-k8s-${overlay}-`));
    const build = execute(tool('bin/kustomize'), ['build', join(root, 'k8s', 'overlays', overlay)]);
    if (build.status !== 0) throw new Error(`kustomize build failed:\n${build.output}`);
    rendered = join(directory, 'rendered.yaml');
    writeFileSync(rendered, build.output);
    resources = parseAllDocuments(build.output).map((document) => document.toJS() as Resource);
  });

  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('validates against the Kubernetes schemas', () => {
    const validate = execute(tool('schemathesis/bin/kubernetes-validate'), ['-k', kubernetesVersion, '--strict', '--quiet', rendered]);
    expect(validate.output).toBe('');
    expect(validate.status).toBe(0);
  });

  it('passes kube-score with no warning', () => {
    const score = execute(tool('bin/kube-score'), [
      'score',
      '--output-format',
      'ci',
      '--exit-one-on-warning',
      '--enable-optional-test',
      'container-seccomp-profile',
      rendered,
    ]);
    const findings = score.output.split('\n').filter((line) => /^\[(WARNING|CRITICAL)\]/.test(line));
    expect(findings).toEqual([]);
    expect(score.status).toBe(0);
  });

  it('runs every pod hardened: non-root, read-only root, no capabilities, RuntimeDefault seccomp, no service account token', () => {
    const pods = resources.filter((resource) => resource.spec?.template);
    expect(pods.length).toBeGreaterThan(8);
    for (const pod of pods) {
      const spec = pod.spec!.template!.spec;
      const where = `${pod.kind}/${pod.metadata.name}`;
      expect({ where, automount: spec.automountServiceAccountToken }).toEqual({ where, automount: false });
      expect({ where, nonRoot: spec.securityContext?.runAsNonRoot, seccomp: spec.securityContext?.seccompProfile?.type }).toEqual({ where, nonRoot: true, seccomp: 'RuntimeDefault' });
      for (const container of spec.containers) {
        const context = container.securityContext;
        expect({ where, readOnly: context?.readOnlyRootFilesystem, escalation: context?.allowPrivilegeEscalation, drop: context?.capabilities?.drop })
          .toEqual({ where, readOnly: true, escalation: false, drop: ['ALL'] });
        expect({ where, requests: Object.keys(container.resources?.requests ?? {}).sort(), limits: Object.keys(container.resources?.limits ?? {}).sort() })
          .toEqual({ where, requests: ['cpu', 'ephemeral-storage', 'memory'], limits: ['cpu', 'ephemeral-storage', 'memory'] });
      }
    }
  });

  it('probes the real health endpoints, and covers every Deployment with a PodDisruptionBudget', () => {
    const deployments = resources.filter((resource) => resource.kind === 'Deployment');
    expect(deployments.map((deployment) => deployment.metadata.name).sort()).toEqual(['auth', 'content', 'gateway', 'media', 'media-worker', 'notify', 'search', 'social']);
    const budgets = resources.filter((resource) => resource.kind === 'PodDisruptionBudget').map((budget) => budget.spec?.selector?.matchLabels?.['app.kubernetes.io/name']);
    for (const deployment of deployments) {
      expect(budgets).toContain(deployment.metadata.name);
      const [container] = deployment.spec!.template!.spec.containers;
      if (deployment.metadata.name === 'media-worker') {
        // No HTTP server: its liveness is the heartbeat served on the metrics port.
        expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'metrics' });
        continue;
      }
      const readiness = deployment.metadata.name === 'gateway' ? '/health/live' : '/health/ready';
      expect({ name: deployment.metadata.name, readiness: container.readinessProbe?.httpGet?.path, liveness: container.livenessProbe?.httpGet?.path })
        .toEqual({ name: deployment.metadata.name, readiness, liveness: '/health/live' });
    }
    const scaled = resources.filter((resource) => resource.kind === 'HorizontalPodAutoscaler').map((hpa) => hpa.spec?.scaleTargetRef?.name).sort();
    expect(scaled).toEqual(['content', 'gateway', 'media-worker']);
  });

  it('holds no secret: no Secret object and no secret-looking setting given a value', () => {
    expect(resources.filter((resource) => resource.kind === 'Secret').map((secret) => secret.metadata.name)).toEqual([]);
    const configMaps = resources.filter((resource) => resource.kind === 'ConfigMap') as unknown as { data?: Record<string, string> }[];
    const inline = [
      ...configMaps.flatMap((map) => Object.keys(map.data ?? {})),
      ...resources.flatMap((resource) => resource.spec?.template?.spec.containers.flatMap((container) => (container.env ?? []).filter((env) => env.value !== undefined).map((env) => env.name)) ?? []),
    ];
    expect(inline.filter((name) => /PASSWORD|SECRET|ACCESS_KEY|ENCRYPTION_KEY|PRIVATE_KEY$|DATABASE_URL/.test(name))).toEqual([]);
  });
});
