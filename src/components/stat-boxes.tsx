import styles from './stat-boxes.module.css';

export interface Stat {
  label: string;
  value: string;
}

/** A row of figures above a list: a total at least. */
export function StatBoxes({ stats }: { stats: readonly Stat[] }) {
  return (
    <dl className={styles.stats}>
      {stats.map((stat) => (
        <div key={stat.label} className={styles.box}>
          <dt className={styles.label}>{stat.label}</dt>
          <dd className={styles.value}>{stat.value}</dd>
        </div>
      ))}
    </dl>
  );
}
